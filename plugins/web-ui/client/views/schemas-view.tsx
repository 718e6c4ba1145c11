/** Schemas: the subjects of the schema registry built into Sluice, each with its latest version's type and id and its compatibility level. */
import { REGISTRY, subjectConfigPath, subjectPath, type RegistryVersion } from "../api/registry-types";
import { ErrorNotice, Loading, PendingCells } from "../components/error-notice";
import { numeric, TableHead } from "../components/table-head";
import { usePoll } from "../live/use-poll";
import { Link } from "../routing/router";
import { pathOf } from "../routing/routes";
import { useSession } from "../session";

/** Subjects change seldom, and each row costs two requests. */
export const SCHEMAS_REFRESH_MS = 5000;

export function SchemasView() {
  const { api } = useSession();
  const listing = usePoll(
    async () => {
      const [subjects, global] = await Promise.all([api.get<string[]>(`${REGISTRY}/subjects`), api.get<{ compatibilityLevel: string }>(`${REGISTRY}/config`)]);
      return { subjects, globalLevel: global.compatibilityLevel };
    },
    [],
    SCHEMAS_REFRESH_MS,
  );
  return (
    <>
      <h1>Schemas</h1>
      <ErrorNotice error={listing.error} />
      {!listing.data ? (
        !listing.error && <Loading what="the schema registry's subjects" />
      ) : (
        <>
          <p>
            Global compatibility level: <strong data-global-level>{listing.data.globalLevel}</strong>
          </p>
          {listing.data.subjects.length === 0 ? (
            <p class="muted">The schema registry has no subject yet.</p>
          ) : (
            <table class="subjects">
              <caption class="visually-hidden">Subjects of the schema registry, refreshed every few seconds</caption>
              <TableHead columns={["Subject", "Type", numeric("Latest version"), numeric("Schema id"), "Compatibility level"]} />
              <tbody>
                {listing.data.subjects.map((subject) => (
                  <SubjectRow key={subject} subject={subject} />
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </>
  );
}

function SubjectRow({ subject }: { subject: string }) {
  const { api } = useSession();
  const row = usePoll(
    async () => {
      const [latest, config] = await Promise.all([
        api.get<RegistryVersion>(subjectPath(subject, "/versions/latest")),
        api.get<{ compatibilityLevel: string }>(`${subjectConfigPath(subject)}?defaultToGlobal=true`),
      ]);
      return { latest, level: config.compatibilityLevel };
    },
    [subject],
    SCHEMAS_REFRESH_MS,
  );
  const data = row.data;
  return (
    <tr data-subject={subject}>
      <th scope="row">
        <Link href={pathOf({ view: "subject", subject })}>{subject}</Link>
      </th>
      {!data ? (
        <PendingCells error={row.error} what={subject} span={4} />
      ) : (
        <>
          <td>{data.latest.schemaType ?? "AVRO"}</td>
          <td class="number">{data.latest.version}</td>
          <td class="number">{data.latest.id}</td>
          <td>{data.level}</td>
        </>
      )}
    </tr>
  );
}
