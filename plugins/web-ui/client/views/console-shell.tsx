/** The frame around every page: header, main navigation, and the page the URL names. */
import { useEffect, useRef } from "preact/hooks";
import { Link, useRoute } from "../routing/router";
import { pathOf, type Route } from "../routing/routes";
import { useSession } from "../session";
import { ApplicationView } from "./application-view";
import { ApplicationsView } from "./applications-view";
import { OverviewView } from "./overview-view";
import { SchemasView } from "./schemas-view";
import { SubjectView } from "./subject-view";

export function ConsoleShell() {
  const { server, credentials, logOut } = useSession();
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  const page = route.view === "application" ? `application:${route.id}` : route.view === "subject" ? `subject:${route.subject}` : route.view;
  const first = useRef(true);
  useEffect(() => {
    document.title = `${titleOf(route)} · Sluice`;
  }, [pathOf(route)]);
  useEffect(() => {
    // A new page moves the focus to its content, as a page load would; switching tabs keeps it on the tab.
    if (!first.current) main.current?.focus();
    first.current = false;
  }, [page]);

  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <Link href="/ui/" class="brand">
          Sluice console
        </Link>
        <span class="muted">version {server.version}</span>
        {server.headless && (
          <span class="badge badge-warning" title="server.headless=true: operations that change applications are refused">
            headless
          </span>
        )}
        <span class="spacer" />
        {credentials && (
          <span class="who">
            {credentials.principal}
            <button type="button" onClick={logOut}>
              Log out
            </button>
          </span>
        )}
      </header>
      <div class="layout">
        <nav aria-label="Main" class="sidebar">
          <ul>
            <li>
              <Link href="/ui/" aria-current={route.view === "overview" ? "page" : undefined}>
                Overview
              </Link>
            </li>
            <li>
              <Link href="/ui/applications" aria-current={route.view === "applications" ? "page" : undefined}>
                Applications
              </Link>
            </li>
            <li>
              <Link href="/ui/schemas" aria-current={route.view === "schemas" || route.view === "subject" ? "page" : undefined}>
                Schemas
              </Link>
            </li>
          </ul>
        </nav>
        <main id="main" tabIndex={-1} ref={main}>
          <Page route={route} />
        </main>
      </div>
    </>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.view) {
    case "overview":
      return <OverviewView />;
    case "applications":
      return <ApplicationsView />;
    case "application":
      return <ApplicationView id={route.id} tab={route.tab} />;
    case "schemas":
      return <SchemasView />;
    case "subject":
      return <SubjectView subject={route.subject} />;
    case "not-found":
      return (
        <>
          <h1>No such page</h1>
          <p>
            The console has no page at <code>{pathOf(route)}</code>. <Link href="/ui/">Go to the overview</Link>.
          </p>
        </>
      );
  }
}

function titleOf(route: Route): string {
  switch (route.view) {
    case "overview":
      return "Overview";
    case "applications":
      return "Applications";
    case "application":
      return `${route.id} · ${route.tab}`;
    case "schemas":
      return "Schemas";
    case "subject":
      return `${route.subject} · Schemas`;
    case "not-found":
      return "No such page";
  }
}
