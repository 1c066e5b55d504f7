/**
 * Credentials. Every secret (refresh token, one-time token, API key, email link token) is stored
 * only as an HMAC-SHA256 digest, so a leaked row never yields a usable credential.
 */
export const sql = `
-- Instance-wide secrets shared by every process (HMAC key); generated on first start.
CREATE TABLE instance_secrets (
  name text PRIMARY KEY,
  value bytea NOT NULL,
  date_created timestamptz NOT NULL DEFAULT now()
);

-- Access-token signing keys; the Global API signs with the active one, the Core API verifies.
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  algorithm text NOT NULL,
  public_jwk jsonb NOT NULL,
  private_pkcs8 text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (active) WHERE active;

CREATE TABLE roles (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text,
  permissions jsonb NOT NULL,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX roles_organization_name_key ON roles (organization_id, lower(name));

ALTER TABLE memberships ADD COLUMN custom_role_id uuid REFERENCES roles (id);
ALTER TABLE memberships ADD COLUMN invited_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL;

-- A sign-in: its refresh tokens form one family; revoking the session revokes them all.
CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  business_id uuid REFERENCES businesses (id) ON DELETE CASCADE,
  scopes jsonb,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_reason text,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

CREATE TABLE refresh_tokens (
  token_hash bytea PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_session_id_idx ON refresh_tokens (session_id);

CREATE TABLE one_time_tokens (
  token_hash bytea PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  target_app text NOT NULL,
  scopes jsonb,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  created_by_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  label text,
  key_hash bytea NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  scopes text,
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_organization_id_idx ON api_keys (organization_id, date_created DESC);

-- Links sent by email: verify the address, reset the password, accept an invitation.
CREATE TABLE email_tokens (
  token_hash bytea PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose text NOT NULL,
  organization_id uuid REFERENCES organizations (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_tokens_user_id_idx ON email_tokens (user_id, purpose);

-- Fixed-window counters shared by every process (login, reset, registration...).
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL
);
`
