import { notFound } from '../../errors.js'

/** The notifications module's error codes (tests assert these, never the message). */
export const notificationNotFound = () =>
  notFound('notification_not_found', 'You have no notification with this id.')
