/**
 * The operations the Actions tab offers, as data: each is one API call with its options and its safeguards, and
 * the tab renders them all alike. A new operation is a new entry here.
 */
import { streamsPath } from "../../session";

export interface ActionSpec {
  id: string;
  label: string;
  explanation: string;
  method: "POST" | "DELETE";
  path(applicationId: string): string;
  /** Checkboxes, each sent as a boolean field of the JSON body. */
  options: readonly { field: string; label: string }[];
  /** Destructive operations run only once the application id has been typed. */
  confirmByTypingId: boolean;
  /** What the operation's success reads, in the past tense. */
  done: string;
  /** The application is gone afterwards (terminate): the answer is no instance description. */
  removes?: boolean;
}

export const ACTIONS: readonly ActionSpec[] = [
  {
    id: "restart",
    label: "Restart",
    explanation: "Stops the application, keeping its local state, and starts it again.",
    method: "POST",
    path: (id) => streamsPath(id, "/restart"),
    options: [],
    confirmByTypingId: false,
    done: "Restarted",
  },
  {
    id: "stop",
    label: "Stop",
    explanation: "Stops the application. It stays listed and can be restarted; with cleanup, its local state is deleted as well.",
    method: "DELETE",
    path: (id) => streamsPath(id, "/stop"),
    options: [{ field: "cleanup", label: "Also delete the application's local state (cleanup)" }],
    confirmByTypingId: true,
    done: "Stopped",
  },
  {
    id: "pause",
    label: "Pause",
    explanation: "Stops fetching and processing; the application keeps its partitions, and its stores keep answering queries while its lag grows. Kept across restarts until resumed.",
    method: "POST",
    path: (id) => streamsPath(id, "/pause"),
    options: [],
    confirmByTypingId: false,
    done: "Paused",
  },
  {
    id: "resume",
    label: "Resume",
    explanation: "Processing goes on from where the pause left it.",
    method: "POST",
    path: (id) => streamsPath(id, "/resume"),
    options: [],
    confirmByTypingId: false,
    done: "Resumed",
  },
  {
    id: "terminate",
    label: "Terminate",
    explanation: "Stops the application and removes it from Sluice, also after a restart; with cleanup, its local state is deleted as well.",
    method: "DELETE",
    path: (id) => streamsPath(id),
    options: [{ field: "cleanup", label: "Also delete the application's local state (cleanup)" }],
    confirmByTypingId: true,
    done: "Terminated",
    removes: true,
  },
];
