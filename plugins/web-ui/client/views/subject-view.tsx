/**
 * One subject of the schema registry: its versions, a line diff between any two of them, and its compatibility level,
 * which an admin may set here (the registry refuses anyone else, and the refusal is shown).
 */
import { useState } from "preact/hooks";
import type { ApiError } from "../api/api-client";
import { COMPATIBILITY_LEVELS, subjectConfigPath, subjectPath, type RegistryVersion } from "../api/registry-types";
import { ErrorNotice, Loading } from "../components/error-notice";
import { lineDiff } from "../components/line-diff";
import { numeric, TableHead } from "../components/table-head";
import { usePoll } from "../live/use-poll";
import { Link } from "../routing/router";
import { useSession } from "../session";
import { SCHEMAS_REFRESH_MS } from "./schemas-view";

interface SubjectData {
  versions: RegistryVersion[];
  level: string;
}

export function SubjectView({ subject }: { subject: string }) {
  const { api } = useSession();
  const data = usePoll<SubjectData>(
    async () => {
      const [numbers, config] = await Promise.all([
        api.get<number[]>(subjectPath(subject, "/versions")),
        api.get<{ compatibilityLevel: string }>(`${subjectConfigPath(subject)}?defaultToGlobal=true`),
      ]);
      const versions = await Promise.all(numbers.map((version) => api.get<RegistryVersion>(subjectPath(subject, `/versions/${version}`))));
      return { versions, level: config.compatibilityLevel };
    },
    [subject],
    SCHEMAS_REFRESH_MS,
  );
  return (
    <>
      <p class="muted">
        <Link href="/ui/schemas">Schemas</Link> /
      </p>
      <h1>{subject}</h1>
      <ErrorNotice error={data.error} />
      {!data.data ? (
        !data.error && <Loading what={`the versions of ${subject}`} />
      ) : (
        <>
          <LevelForm subject={subject} level={data.data.level} onSet={data.refresh} />
          <h2>Versions</h2>
          <table class="versions">
            <TableHead columns={[numeric("Version"), numeric("Schema id"), "Type"]} />
            <tbody>
              {data.data.versions.map((version) => (
                <tr key={version.version} data-version={version.version}>
                  <th scope="row" class="number">
                    {version.version}
                  </th>
                  <td class="number">{version.id}</td>
                  <td>{version.schemaType ?? "AVRO"}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <VersionDiff versions={data.data.versions} />
        </>
      )}
    </>
  );
}

function LevelForm({ subject, level, onSet }: { subject: string; level: string; onSet: () => void }) {
  const { api } = useSession();
  const [chosen, setChosen] = useState<string | undefined>();
  const [failure, setFailure] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    try {
      await api.request("PUT", subjectConfigPath(subject), { compatibility: chosen ?? level });
      setFailure(undefined);
      setChosen(undefined);
      onSet();
    } catch (error) {
      setFailure(error as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="level-form" onSubmit={submit}>
      <p>
        Compatibility level: <strong data-level>{level}</strong>
      </p>
      <label class="inline-field">
        New level
        <select value={chosen ?? level} onChange={(event) => setChosen(event.currentTarget.value)}>
          {COMPATIBILITY_LEVELS.map((one) => (
            <option key={one} value={one}>
              {one}
            </option>
          ))}
        </select>
      </label>{" "}
      <button type="submit" class="primary" disabled={busy || (chosen ?? level) === level}>
        Set level
      </button>
      <span class="muted"> (admins only)</span>
      <ErrorNotice error={failure} action="Set level" />
    </form>
  );
}

/** A schema's text one element a line where it is JSON (Avro, JSON Schema), so that the diff has lines to compare; Protobuf as it is. */
function readable(version: RegistryVersion): string {
  if (version.schemaType === "PROTOBUF") return version.schema;
  try {
    return JSON.stringify(JSON.parse(version.schema), null, 2);
  } catch {
    return version.schema;
  }
}

function VersionDiff({ versions }: { versions: RegistryVersion[] }) {
  const numbers = versions.map((version) => version.version);
  const latest = numbers[numbers.length - 1];
  const [from, setFrom] = useState(numbers[numbers.length - 2] ?? latest);
  const [to, setTo] = useState(latest);
  const before = versions.find((version) => version.version === from) ?? versions[0];
  const after = versions.find((version) => version.version === to) ?? versions[versions.length - 1];
  const lines = lineDiff(readable(before), readable(after));
  const picker = (label: string, value: number, set: (version: number) => void) => (
    <label class="inline-field">
      {label}
      <select value={String(value)} onChange={(event) => set(Number(event.currentTarget.value))}>
        {numbers.map((version) => (
          <option key={version} value={String(version)}>
            {version}
          </option>
        ))}
      </select>
    </label>
  );
  const added = lines.filter((line) => line.kind === "added").length;
  const removed = lines.filter((line) => line.kind === "removed").length;
  return (
    <section aria-labelledby="diff-heading">
      <h2 id="diff-heading">Changes</h2>
      {picker("From version", before.version, setFrom)} {picker("To version", after.version, setTo)}
      <p class="muted" data-diff-summary>
        {added} lines added, {removed} removed
      </p>
      <pre class="schema-diff" data-from={before.version} data-to={after.version}>
        {lines.map((line, index) => (
          <span key={index} class={`diff-line diff-${line.kind}`}>
            <span class="diff-mark" aria-hidden="true">
              {line.kind === "added" ? "+" : line.kind === "removed" ? "-" : " "}
            </span>
            {line.kind === "added" ? <ins>{line.text}</ins> : line.kind === "removed" ? <del>{line.text}</del> : line.text}
          </span>
        ))}
      </pre>
    </section>
  );
}
