import { type KeyboardEvent, type Ref, useId, useState } from 'react'

export interface ComboOption {
  id: string
  label: string
  /** A second line (a code, a kind) shown muted and read after the label. */
  detail?: string
  /** Options of one group are listed under its heading. */
  group?: string
}

/**
 * A text box with a list of suggestions (the WAI-ARIA combobox pattern): typing asks for options,
 * Down and Up move through them (focus stays in the box, the active option is announced through
 * aria-activedescendant), Enter chooses, Escape closes. Options come from the caller, which
 * searches as it likes.
 */
export function Combobox({
  label,
  text,
  onText,
  options,
  onChoose,
  loading = false,
  placeholder,
  describedBy,
  invalid,
  id: givenId,
  inputRef,
  emptyText = 'No match.',
  className,
  keyShortcuts,
}: {
  label: string
  text: string
  onText: (text: string) => void
  options: readonly ComboOption[]
  onChoose: (option: ComboOption) => void
  loading?: boolean
  placeholder?: string
  describedBy?: string | undefined
  invalid?: boolean | undefined
  id?: string
  inputRef?: Ref<HTMLInputElement>
  emptyText?: string
  className?: string
  /** The keys that reach the box from anywhere (aria-keyshortcuts), e.g. "/ Control+K". */
  keyShortcuts?: string
}) {
  const ownId = useId()
  const id = givenId ?? ownId
  const listId = `${id}-list`
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const shown = open && text.trim() !== ''
  const optionId = (index: number) => `${id}-option-${index}`

  const choose = (option: ComboOption | undefined) => {
    if (!option) return
    onChoose(option)
    setOpen(false)
    setActive(-1)
  }
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault()
      setOpen(true)
      setActive((index) => (options.length === 0 ? -1 : (index + 1) % options.length))
    } else if (event.key === 'ArrowUp') {
      event.preventDefault()
      setOpen(true)
      setActive((index) => (options.length === 0 ? -1 : (index <= 0 ? options.length : index) - 1))
    } else if (event.key === 'Enter') {
      if (shown && options.length > 0) {
        event.preventDefault()
        choose(options[Math.max(active, 0)])
      }
    } else if (event.key === 'Escape') {
      if (shown) {
        event.preventDefault()
        setOpen(false)
        setActive(-1)
      }
    }
  }

  let lastGroup: string | undefined
  return (
    <div className={['combobox', className].filter(Boolean).join(' ')}>
      <input
        id={id}
        ref={inputRef}
        type="text"
        role="combobox"
        aria-label={label}
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid}
        aria-keyshortcuts={keyShortcuts}
        autoComplete="off"
        placeholder={placeholder}
        value={text}
        onChange={(event) => {
          onText(event.target.value)
          setOpen(true)
          setActive(-1)
        }}
        onKeyDown={onKeyDown}
        onFocus={() => setOpen(true)}
        // A click on an option lands before the blur closes the list (mousedown is prevented there).
        onBlur={() => setOpen(false)}
      />
      <div className="combobox-popup" hidden={!shown}>
        <div id={listId} role="listbox" aria-label={`${label}: suggestions`}>
          {options.map((option, index) => {
            const heading = option.group && option.group !== lastGroup ? option.group : null
            lastGroup = option.group
            return (
              // The keyboard works in the text box (aria-activedescendant); a click chooses too.
              // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled by the combobox's input
              <div
                key={`${option.group ?? ''}:${option.id}`}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className={heading ? 'first-of-group' : undefined}
                data-group={heading ?? undefined}
                onMouseDown={(event) => event.preventDefault()}
                tabIndex={-1}
                onClick={() => choose(option)}
              >
                {heading && (
                  <span className="option-group" aria-hidden="true">
                    {heading}
                  </span>
                )}
                <span>{option.label}</span>
                {option.detail && <span className="muted"> {option.detail}</span>}
              </div>
            )
          })}
        </div>
        {options.length === 0 && (
          <p className="muted combobox-note" role="status">
            {loading ? 'Searching…' : emptyText}
          </p>
        )}
      </div>
    </div>
  )
}
