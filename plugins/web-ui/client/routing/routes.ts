/** The console's pages and their URLs under /ui/: every view and every application tab has its own. */

export const BASE = "/ui/";

export const APPLICATION_TABS = [
  { id: "description", label: "Description" },
  { id: "topology", label: "Topology" },
  { id: "instances", label: "Instances" },
  { id: "offsets", label: "Offsets and lag" },
  { id: "stores", label: "Stores" },
  { id: "metrics", label: "Metrics" },
  { id: "events", label: "Events" },
  { id: "query", label: "Query" },
  { id: "actions", label: "Actions" },
] as const;

export type ApplicationTab = (typeof APPLICATION_TABS)[number]["id"];

export type Route =
  | { view: "overview" }
  | { view: "applications" }
  | { view: "application"; id: string; tab: ApplicationTab }
  | { view: "schemas" }
  | { view: "subject"; subject: string }
  | { view: "not-found"; path: string };

const isTab = (name: string): name is ApplicationTab => APPLICATION_TABS.some((tab) => tab.id === name);

export function routeOf(pathname: string): Route {
  if (!pathname.startsWith(BASE)) return { view: "not-found", path: pathname };
  const parts = pathname.slice(BASE.length).split("/").filter((part) => part !== "");
  if (parts.length === 0) return { view: "overview" };
  if (parts[0] === "applications") {
    if (parts.length === 1) return { view: "applications" };
    const id = safeDecode(parts[1]);
    const tab = parts[2] ?? "description";
    if (id !== undefined && parts.length <= 3 && isTab(tab)) return { view: "application", id, tab };
  }
  if (parts[0] === "schemas") {
    if (parts.length === 1) return { view: "schemas" };
    const subject = safeDecode(parts[1]);
    if (subject !== undefined && parts.length === 2) return { view: "subject", subject };
  }
  return { view: "not-found", path: pathname };
}

export function pathOf(route: Route): string {
  switch (route.view) {
    case "overview":
      return BASE;
    case "applications":
      return `${BASE}applications`;
    case "application":
      return `${BASE}applications/${encodeURIComponent(route.id)}/${route.tab}`;
    case "schemas":
      return `${BASE}schemas`;
    case "subject":
      return `${BASE}schemas/${encodeURIComponent(route.subject)}`;
    case "not-found":
      return route.path;
  }
}

function safeDecode(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
