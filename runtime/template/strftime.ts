const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const pad = (value: number, width = 2) => String(value).padStart(width, "0");

/** Python's strftime directives templates use (in local time, as Python's datetime.now()); `%%` is a percent sign; an unknown directive stays as written. */
const DIRECTIVES: Record<string, (date: Date) => string> = {
  a: (date) => DAYS[date.getDay()]!.slice(0, 3),
  A: (date) => DAYS[date.getDay()]!,
  b: (date) => MONTHS[date.getMonth()]!.slice(0, 3),
  B: (date) => MONTHS[date.getMonth()]!,
  d: (date) => pad(date.getDate()),
  m: (date) => pad(date.getMonth() + 1),
  y: (date) => pad(date.getFullYear() % 100),
  Y: (date) => String(date.getFullYear()),
  H: (date) => pad(date.getHours()),
  I: (date) => pad(((date.getHours() + 11) % 12) + 1),
  p: (date) => (date.getHours() < 12 ? "AM" : "PM"),
  M: (date) => pad(date.getMinutes()),
  S: (date) => pad(date.getSeconds()),
  j: (date) => pad(Math.floor((Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) - Date.UTC(date.getFullYear(), 0, 1)) / 86_400_000) + 1, 3),
  "%": () => "%",
};

/** `date` formatted as Python's `datetime.strftime(format)` formats it. */
export function strftime(format: string, date: Date): string {
  return format.replace(/%(.)/g, (directive, code: string) => DIRECTIVES[code]?.(date) ?? directive);
}
