import { words } from '../lib/format'

const TONE: Record<string, string> = {
  Active: 'good',
  Completed: 'good',
  Delivered: 'good',
  Fulfilled: 'good',
  Confirmed: 'good',
  Received: 'good',
  PartiallyFulfilled: 'busy',
  Requested: 'wait',
  WrittenOff: '',
  Success: 'good',
  InProgress: 'busy',
  InTransit: 'busy',
  Dispatched: 'busy',
  Released: 'busy',
  Scheduled: 'busy',
  Assigned: 'busy',
  Draft: 'wait',
  Pending: 'wait',
  Failed: 'bad',
  Cancelled: 'bad',
  Returned: 'bad',
  Archived: '',
  Inactive: '',
}

/** A state in words (never colour alone). */
export function Status({ value }: { value: string }) {
  return <span className={`badge ${TONE[value] ?? ''}`}>{words(value)}</span>
}
