/** Identity tables shared by every organisation: organisations, users, memberships, the business index. */
export const sql = `
CREATE TABLE organizations (
  id uuid PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  name text NOT NULL,
  schema_name text NOT NULL UNIQUE,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  phone_number text,
  password_hash text,
  email_verified_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
-- Emails are unique whatever their letter case.
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE memberships (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL,
  status text NOT NULL DEFAULT 'Active',
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, user_id)
);
CREATE INDEX memberships_user_id_idx ON memberships (user_id);

-- Which organisation (and so which schema) a business lives in: resolves X-Business-Id in one lookup.
CREATE TABLE businesses (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  parent_business_id uuid REFERENCES businesses (id),
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX businesses_organization_id_idx ON businesses (organization_id);
`
