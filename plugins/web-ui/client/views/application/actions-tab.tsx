/**
 * Actions on the application, one form per entry of the action catalog. In headless mode every form is disabled
 * with the reason and sends nothing; a refusal shows the message of Sluice's error body.
 */
import { useState } from "preact/hooks";
import type { ApiError } from "../../api/api-client";
import type { InstanceDescription } from "../../api/sluice-types";
import { ErrorNotice } from "../../components/error-notice";
import { Since } from "../../components/since";
import { Link } from "../../routing/router";
import { pathOf } from "../../routing/routes";
import { useSession } from "../../session";
import type { TabProps } from "./tab-props";
import { ACTIONS, type ActionSpec } from "./action-catalog";

const HEADLESS_REASON = "Sluice runs headless (server.headless=true): it refuses operations that change applications, so the console offers none.";

export function ActionsTab({ id, description }: TabProps) {
  const { server } = useSession();
  return (
    <>
      <h2>Actions</h2>
      {server.headless && (
        <p class="notice notice-warning" id="headless-reason">
          {HEADLESS_REASON}
        </p>
      )}
      <div class="cards">
        {ACTIONS.map((action) => (
          <ActionForm key={action.id} id={id} action={action} disabled={server.headless} onDone={description.refresh} />
        ))}
      </div>
    </>
  );
}

interface ActionFormProps {
  id: string;
  action: ActionSpec;
  disabled: boolean;
  onDone(): void;
}

function ActionForm({ id, action, disabled, onDone }: ActionFormProps) {
  const { api } = useSession();
  const [options, setOptions] = useState<Record<string, boolean>>({});
  const [confirmation, setConfirmation] = useState("");
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<{ done?: InstanceDescription; removed?: boolean; error?: ApiError }>({});
  const confirmed = !action.confirmByTypingId || confirmation === id;
  const prefix = `action-${action.id}`;

  const submit = async (event: Event) => {
    event.preventDefault();
    if (disabled || !confirmed || running) return;
    setRunning(true);
    setOutcome({});
    const body = action.options.length === 0 ? undefined : Object.fromEntries(action.options.map(({ field }) => [field, options[field] === true]));
    try {
      const done = await api.request<InstanceDescription>(action.method, action.path(id), body);
      setOutcome(action.removes ? { removed: true } : { done });
      setConfirmation("");
      if (!action.removes) onDone();
    } catch (error) {
      setOutcome({ error: error as ApiError });
    }
    setRunning(false);
  };

  return (
    <form class="card action" onSubmit={submit} aria-labelledby={`${prefix}-heading`} data-action={action.id}>
      <h3 id={`${prefix}-heading`}>{action.label}</h3>
      <p id={`${prefix}-explanation`}>{action.explanation}</p>
      <fieldset disabled={disabled || running} aria-describedby={disabled ? "headless-reason" : undefined}>
        <legend class="visually-hidden">{action.label} {id}</legend>
        {action.options.map(({ field, label }) => (
          <label key={field} class="checkbox">
            <input type="checkbox" name={field} checked={options[field] === true} onChange={(event) => setOptions({ ...options, [field]: event.currentTarget.checked })} />
            {label}
          </label>
        ))}
        {action.confirmByTypingId && (
          <label>
            <span>
              Type <code>{id}</code> to confirm
            </span>
            <input name="confirmation" autocomplete="off" spellcheck={false} value={confirmation} onInput={(event) => setConfirmation(event.currentTarget.value)} />
          </label>
        )}
        <button type="submit" class={action.confirmByTypingId ? "danger" : "primary"} disabled={!confirmed} aria-describedby={`${prefix}-explanation`}>
          {running ? `${action.label}…` : `${action.label} ${id}`}
        </button>
      </fieldset>
      {disabled && <p class="muted">Disabled: headless mode.</p>}
      {outcome.done && (
        <p class="notice notice-ok" role="status">
          {action.done}: {outcome.done.state.state}
          {outcome.done.state.paused ? " (paused)" : ""} since <Since time={outcome.done.state.since} />.
        </p>
      )}
      {outcome.removed && (
        <p class="notice notice-ok" role="status">
          {action.done}: {id} no longer runs here. <Link href={pathOf({ view: "applications" })}>Back to the applications</Link>
        </p>
      )}
      <ErrorNotice error={outcome.error} action={action.label} />
    </form>
  );
}
