import { conflict, invalidField, notFound } from '../../../errors.js'

/** The customer groups module's error codes (tests assert these, never the message). */
export const groupNotFound = () =>
  notFound('customer_group_not_found', 'No customer group of this business has this id.')

export const groupNameTaken = () =>
  conflict('group_name_taken', 'The business already has a customer group with this name.')

export const groupInUse = (customers: number) =>
  conflict(
    'group_in_use',
    `The group still has ${customers} customer(s); pass moveCustomersTo=<groupId> or moveCustomersTo=none.`,
  )

export const moveTargetNotFound = () =>
  invalidField('moveCustomersTo', 'no customer group of this business has this id')
