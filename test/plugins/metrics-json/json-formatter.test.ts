import { suite } from "uvu";
import * as assert from "uvu/assert";
import { JsonMetricsFormatter } from "../../../plugins/metrics-json";

const json = suite("JSON metrics formatter");

json("renders the groups as the JSON array of docs/api.md#metrics, NaN as null", () => {
  const formatter = new JsonMetricsFormatter();
  assert.is(formatter.format, "json");
  assert.is(formatter.contentType, "application/json; charset=utf-8");
  const body = formatter.render("app", [{ name: "g", metrics: [{ name: "m", description: "d", tags: { t: "1" }, value: NaN }] }]);
  assert.equal(JSON.parse(body), [{ name: "g", metrics: [{ name: "m", description: "d", tags: { t: "1" }, value: null }] }]);
});

json.run();
