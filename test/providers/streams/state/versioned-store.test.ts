import * as assert from "uvu/assert";
import { PUT_RETURN_CODE_NOT_PUT, PUT_RETURN_CODE_VALID_TO_UNDEFINED, type ReadOnlyVersionedKeyValueStore, type StoreSpec } from "../../../../kernel/contracts/streams/stores";
import { stateSuite, stringSerde } from "./state-fixture";

const { test, dir } = stateSuite("versioned key-value stores");

const versionedSpec = (historyRetentionMs = 50): StoreSpec => ({ name: "prices", type: "versioned_key_value", keySerde: stringSerde, valueSerde: stringSerde, historyRetentionMs });

const queryable = (state: Awaited<ReturnType<typeof dir.open>>) => state.readOnly("prices").store as ReadOnlyVersionedKeyValueStore<string, string>;

test("versions of a key answer as of a time with their validity; queries see what the last commit wrote", async () => {
  const state = await dir.open([versionedSpec()]);
  const prices = state.versionedKeyValueStore<string, string>("prices");
  assert.is(prices.put("apple", "10c", 10), PUT_RETURN_CODE_VALID_TO_UNDEFINED);
  assert.is(prices.put("apple", "20c", 20), PUT_RETURN_CODE_VALID_TO_UNDEFINED);
  assert.is(prices.put("apple", "15c", 15), 20);
  assert.equal(prices.get("apple", 17), { value: "15c", timestamp: 15, validTo: 20 });
  assert.equal(prices.get("apple"), { value: "20c", timestamp: 20 });
  assert.is(prices.get("apple", 9), undefined);
  assert.is(await queryable(state).get("apple"), undefined);
  await state.commit();
  assert.equal(await queryable(state).get("apple"), { value: "20c", timestamp: 20 });
  assert.equal(await queryable(state).get("apple", 12), { value: "10c", timestamp: 10, validTo: 15 });
  assert.is(await queryable(state).approximateNumEntries(), 3);
});

test("a commit deletes the versions (and tombstones) that ended before stream time minus the history retention", async () => {
  const state = await dir.open([versionedSpec()]);
  const prices = state.versionedKeyValueStore<string, string>("prices");
  prices.put("apple", "10c", 10);
  prices.put("apple", "20c", 20);
  prices.put("pear", "5c", 10);
  prices.delete("pear", 30);
  prices.put("plum", "1c", 10);
  await state.commit();
  assert.is(await queryable(state).approximateNumEntries(), 5);
  prices.put("fig", "9c", 100);
  await state.commit();
  // apple@10 ended at 20 and pear's versions by 30, both before 100 - 50; apple@20 and plum@10 are their keys' latest.
  assert.is(await queryable(state).approximateNumEntries(), 3);
  assert.equal(await queryable(state).get("apple", 60), { value: "20c", timestamp: 20 });
  assert.is(await queryable(state).get("apple", 15), undefined);
  assert.is(await queryable(state).get("pear"), undefined);
  assert.equal(await queryable(state).get("plum"), { value: "1c", timestamp: 10 });
  assert.is(prices.put("apple", "late", 49), PUT_RETURN_CODE_NOT_PUT);
  assert.is(prices.put("apple", "in time", 50), PUT_RETURN_CODE_VALID_TO_UNDEFINED);
});

test("a restore from the changelog and a reopen give the same versions and the same stream time", async () => {
  const first = await dir.open([versionedSpec()], { taskId: "0_0" });
  const prices = first.versionedKeyValueStore<string, string>("prices");
  prices.put("apple", "10c", 10);
  prices.put("apple", "30c", 30);
  prices.put("apple", "20c", 20);
  prices.delete("apple", 40);
  prices.put("fig", "9c", 60);
  const changelog = first.drainChangelog();
  assert.equal(changelog.map(({ value }) => (value === null ? null : value.toString())), ["10c", "30c", "20c", null, "9c"]);
  await first.commit();
  await first.close();

  const restored = await dir.open([versionedSpec()], { taskId: "1_0" });
  await restored.restoreBatch("prices", changelog.map(({ key, value, timestamp }) => ({ key, value, timestamp })), String(changelog.length - 1));
  const reopened = await dir.open([versionedSpec()], { taskId: "0_0" });
  for (const state of [restored, reopened]) {
    const store = state.versionedKeyValueStore<string, string>("prices");
    assert.equal(store.get("apple", 25), { value: "20c", timestamp: 20, validTo: 30 });
    assert.is(store.get("apple"), undefined);
    assert.equal(store.get("fig"), { value: "9c", timestamp: 60 });
    assert.equal(await queryable(state).get("apple", 35), { value: "30c", timestamp: 30, validTo: 40 });
    assert.is(store.put("apple", "late", 9), PUT_RETURN_CODE_NOT_PUT);
  }
});

test("a versioned store without a history retention is refused", async () => {
  try {
    await dir.open([{ name: "v", type: "versioned_key_value", keySerde: stringSerde, valueSerde: stringSerde }]);
    assert.unreachable("opened");
  } catch (error) {
    assert.match(String(error), /needs a historyRetentionMs/);
  }
});

test.run();
