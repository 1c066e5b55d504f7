import { forbidden, notFound } from '../../../errors.js'
import type { Action } from '../../../security/permissions.js'

/** The API keys module's error codes (tests assert these, never the message). */
export const apiKeyNotFound = () =>
  notFound('api_key_not_found', 'No API key with this id in your organisation.')

export const ownerRequired = () =>
  forbidden('owner_required', 'Only an owner of the organisation may create or revoke API keys.')

export const keyScopeInsufficient = (action: Action) =>
  forbidden(
    'key_scope_insufficient',
    `This credential's scopes do not grant TeamAndRoles ${action}, which managing API keys needs.`,
  )

export const keyForAnotherBusiness = () =>
  forbidden('scope_escalation', 'This credential may only create keys for its own business.')

export const scopesBeyondCredential = () =>
  forbidden(
    'scope_escalation',
    'A key cannot be given rights beyond the scopes of the credential creating it.',
  )
