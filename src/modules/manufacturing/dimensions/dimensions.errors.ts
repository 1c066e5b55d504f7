import { AppError, conflict, notFound } from '../../../errors.js'

/**
 * The dimensions module's error codes (tests assert these, never the message). A preset named in
 * another record's body (a shipment's dimensionPresetId) is named in `reasons`.
 */
export const presetNotFound = (field?: string) =>
  new AppError(
    404,
    'dimension_preset_not_found',
    'No dimension preset of this business has this id.',
    field ? [{ field, message: 'must be a dimension preset of this business' }] : [],
  )

export const noDefaultPreset = () =>
  notFound('no_default_preset', 'This business has no dimension presets yet.')

export const defaultPresetRequired = () =>
  conflict(
    'default_preset_required',
    'A business keeps one default preset: make another preset the default instead.',
  )
