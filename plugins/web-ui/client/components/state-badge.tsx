/** An application state in words and colour (the words carry it alone for those who do not see the colour). */
import type { AppState } from "../api/sluice-types";

export function StateBadge({ state, paused = false }: { state: AppState | string; paused?: boolean }) {
  return (
    <>
      <span class={`state state-${state.toLowerCase().replace(/_/g, "-")}`}>{state}</span>
      {paused && <span class="state state-paused">PAUSED</span>}
    </>
  );
}
