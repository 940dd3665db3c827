/**
 * The times diff(1) gives each file on its `---`/`+++` lines (git gives none): what marks a side that does not
 * exist, and what is left out of a name.
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const ISO_TIME = /\s(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?\s*(?:([+-])(\d\d)(\d\d)|Z)?\s*$/;
const CTIME = /\s[A-Z][a-z]{2} ([A-Z][a-z]{2}) +(\d\d?) (\d\d):(\d\d):(\d\d)(?:\.\d+)? (\d{4})\s*$/;

/** Whether a `---`/`+++` line gives its file a time, as diff(1) does (git does not). */
export const isDated = (rest: string): boolean => ISO_TIME.test(rest) || CTIME.test(rest);

/**
 * Whether the time a `---`/`+++` line gives its file is the Unix epoch, in any zone: `diff -N` (and `diff -ruN`
 * over folders) dates a file that does not exist on that side so, as `/dev/null` does in git's diffs.
 */
export function datedAbsent(rest: string): boolean {
  const iso = ISO_TIME.exec(rest);
  if (iso !== null) {
    const [, y, mo, d, h, mi, s = "0", sign, oh = "0", om = "0"] = iso;
    const offset = (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000;
    return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offset === 0;
  }
  // The older format (`diff -c`, `diff -u` before 2.8) in the zone of the machine that made it: within a day.
  const ctime = CTIME.exec(rest);
  if (ctime === null) return false;
  const [, mo = "", d, h, mi, s, y] = ctime;
  const at = Date.UTC(Number(y), MONTHS.indexOf(mo), Number(d), Number(h), Number(mi), Number(s));
  return Math.abs(at) < 24 * 3_600_000;
}

/** A header's name without the time diff(1) put after it (separated by spaces, when not by a tab). */
export const withoutDate = (rest: string): string => rest.replace(ISO_TIME, "").replace(CTIME, "");
