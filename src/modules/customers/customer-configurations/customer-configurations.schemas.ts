import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Uuid } from '../../../http/schema-helpers.js'
import { NullableSettingValue, SETTING_KEY_PATTERN_TEXT } from '../../organisation/index.js'

export const CustomerConfigurationResponse = Type.Object({
  customerId: Uuid(),
  key: Type.String(),
  value: Type.String(),
  dateCreated: DateTime(),
  dateModified: DateTime(),
})
export type CustomerConfigurationResponse = Static<typeof CustomerConfigurationResponse>

export const CustomerConfigurationQuery = Type.Object({ customerId: Uuid() })

export const SaveCustomerAppConfigurationCommand = Type.Object({
  key: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: SETTING_KEY_PATTERN_TEXT,
    description: 'letters, digits, dot, underscore, hyphen; case-sensitive',
  }),
  value: NullableSettingValue(
    'the value as text; null removes the key. A key of the settings registry must fit its type.',
  ),
})
export type SaveCustomerAppConfigurationCommand = Static<typeof SaveCustomerAppConfigurationCommand>
