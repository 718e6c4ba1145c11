/** A point in time as "3 min ago", the exact time in its tooltip and its `datetime` attribute. */
import { formatAge, parseSluiceTime } from "./formatting";

export function Since({ time }: { time: string }) {
  const date = parseSluiceTime(time);
  return (
    <time dateTime={time} title={date.toLocaleString()}>
      {formatAge(Date.now() - date.getTime())}
    </time>
  );
}
