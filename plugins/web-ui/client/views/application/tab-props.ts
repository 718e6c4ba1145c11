/** What every tab of an application's view is given. */
import type { InstanceDescription } from "../../api/sluice-types";
import type { Poll } from "../../live/use-poll";

export interface TabProps {
  id: string;
  description: Poll<InstanceDescription>;
}
