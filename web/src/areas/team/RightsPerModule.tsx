import { Field } from '../../components/Field'
import { LEVELS, maskWords, moduleWords } from './permission-masks'

/**
 * One select per permission module with the levels a role or an API key's scopes may grant; a mask
 * that is none of them (set through the API) is kept and shown in words. `field` names where the
 * API's reasons point (`permissions` for a role, `scopes` for a key).
 */
export function RightsPerModule({
  legend,
  field,
  modules,
  masks,
  onChange,
  problems,
}: {
  legend: string
  field: string
  modules: readonly string[]
  masks: Record<string, number>
  onChange: (module: string, mask: number) => void
  problems: Record<string, string | undefined>
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {problems[field] && <p className="problem">{problems[field]}</p>}
      <div className="form-row">
        {modules.map((module) => {
          const mask = masks[module] ?? 0
          const known = LEVELS.some((l) => l.mask === mask)
          return (
            <Field key={module} label={moduleWords(module)} problem={problems[`${field}.${module}`]}>
              {(control) => (
                <select {...control} value={mask} onChange={(e) => onChange(module, Number(e.target.value))}>
                  {!known && <option value={mask}>{maskWords(mask)}</option>}
                  {LEVELS.map((level) => (
                    <option key={level.mask} value={level.mask}>
                      {level.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )
        })}
      </div>
    </fieldset>
  )
}
