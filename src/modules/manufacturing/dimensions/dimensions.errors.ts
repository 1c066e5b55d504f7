import { conflict, notFound } from '../../../errors.js'

/** The dimensions module's error codes (tests assert these, never the message). */
export const presetNotFound = () =>
  notFound('dimension_preset_not_found', 'No dimension preset of this business has this id.')

export const noDefaultPreset = () =>
  notFound('no_default_preset', 'This business has no dimension presets yet.')

export const defaultPresetRequired = () =>
  conflict(
    'default_preset_required',
    'A business keeps one default preset: make another preset the default instead.',
  )
