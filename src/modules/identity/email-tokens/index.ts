/**
 * What the other modules of the identity area may use of identity/email-tokens; everything else in its
 * folder is its own. The dependency test (test/architecture) holds them to it.
 */
export { invalidEmailToken } from './email-tokens.errors.js'
export {
  consumeEmailToken,
  createEmailToken,
  findUsableEmailToken,
  retireEmailTokens,
} from './email-tokens.service.js'
export { sendVerificationEmail } from './email-verification.service.js'
