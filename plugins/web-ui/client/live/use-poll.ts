/**
 * Live data: loads at once, then again `REFRESH_MS` after each answer (never two requests of one poll in
 * flight), and not at all while the tab is hidden. A failed load keeps the last data and reports the error.
 */
import { useEffect, useState } from "preact/hooks";
import type { ApiError } from "../api/api-client";

export const REFRESH_MS = 2000;

export interface Poll<T> {
  data: T | undefined;
  error: ApiError | undefined;
  /** Loads again now (after an action changed what the poll shows). */
  refresh(): void;
}

export function usePoll<T>(load: () => Promise<T>, deps: unknown[], intervalMs = REFRESH_MS): Poll<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError }>({});
  const [round, setRound] = useState(0);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      if (!document.hidden) {
        try {
          const data = await load();
          if (!stopped) setState({ data });
        } catch (error) {
          if (!stopped) setState((previous) => ({ data: previous.data, error: error as ApiError }));
        }
      }
      if (!stopped) timer = setTimeout(tick, intervalMs);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [...deps, round]);
  // New subjects (another application) start empty rather than showing the previous one's data.
  useEffect(() => setState({}), deps);
  return { data: state.data, error: state.error, refresh: () => setRound((n) => n + 1) };
}
