/** One application: its header (state, since, version) and a tab per aspect, each at its own URL. */
import type { ComponentType } from "preact";
import type { InstanceDescription } from "../api/sluice-types";
import { ErrorNotice, Loading } from "../components/error-notice";
import { Since } from "../components/since";
import { StateBadge } from "../components/state-badge";
import { usePoll } from "../live/use-poll";
import { Link } from "../routing/router";
import { APPLICATION_TABS, pathOf, type ApplicationTab } from "../routing/routes";
import { streamsPath, useSession } from "../session";
import { ActionsTab } from "./application/actions-tab";
import { DescriptionTab } from "./application/description-tab";
import { EventsTab } from "./application/events-tab";
import { InstancesTab } from "./application/instances-tab";
import { MetricsTab } from "./application/metrics-tab";
import { OffsetsTab } from "./application/offsets-tab";
import { QueryTab } from "./application/query-tab";
import { StoresTab } from "./application/stores-tab";
import { TopologyTab } from "./application/topology-tab";
import type { TabProps } from "./application/tab-props";

const TABS: Record<ApplicationTab, ComponentType<TabProps>> = {
  description: DescriptionTab,
  topology: TopologyTab,
  instances: InstancesTab,
  offsets: OffsetsTab,
  stores: StoresTab,
  metrics: MetricsTab,
  events: EventsTab,
  query: QueryTab,
  actions: ActionsTab,
};

export function ApplicationView({ id, tab }: { id: string; tab: ApplicationTab }) {
  const { api } = useSession();
  const description = usePoll(() => api.get<InstanceDescription>(streamsPath(id)), [id]);
  const data = description.data;
  const Tab = TABS[tab];
  const label = APPLICATION_TABS.find((one) => one.id === tab)!.label;
  if (!data) {
    return (
      <>
        <h1>{id}</h1>
        {description.error ? <ErrorNotice error={description.error} /> : <Loading what={id} />}
      </>
    );
  }
  return (
    <>
      <header class="application-header">
        <h1>
          {data.name} <span class="muted">({id})</span>
        </h1>
        <p class="facts">
          <StateBadge state={data.state.state} paused={data.state.paused === true} /> <span data-since>since <Since time={data.state.since} /></span> · started{" "}
          <span data-started>
            <Since time={data.since} />
          </span>{" "}
          · version {data.version}
        </p>
        <ErrorNotice error={description.error} />
      </header>
      <nav aria-label={`${id} sections`} class="tabs">
        <ul>
          {APPLICATION_TABS.map((one) => (
            <li key={one.id}>
              <Link href={pathOf({ view: "application", id, tab: one.id })} aria-current={one.id === tab ? "page" : undefined}>
                {one.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section class="tab-panel" aria-label={label}>
        <Tab key={id} id={id} description={description} />
      </section>
    </>
  );
}
