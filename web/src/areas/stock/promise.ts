import { quantity } from '../../lib/format'

export interface PromiseAnswer {
  quantity: number
  date: string
  promisable: boolean
  earliestDate: string | null
  free: number
}

/** An available-to-promise answer as a sentence: yes or no by the day asked, and from when. */
export function promiseInWords(
  answer: PromiseAnswer,
  unit: string,
  writeDay: (day: string) => string,
): string {
  const what = quantity(answer.quantity, unit)
  const free = `${quantity(answer.free, unit)} free now (available less backorders)`
  if (answer.promisable)
    return `Yes: ${what} can be promised by ${writeDay(answer.date)}, from ${writeDay(answer.earliestDate ?? answer.date)}; ${free}.`
  if (answer.earliestDate)
    return `Not by ${writeDay(answer.date)}: ${what} can be promised from ${writeDay(answer.earliestDate)}, when incoming stock covers it; ${free}.`
  return `Not by ${writeDay(answer.date)}, nor later: even all incoming stock falls short of ${what}; ${free}.`
}
