/**
 * When `sluice broker` checks ACLs, as its configuration decides: `broker.authorizer=auto` turns them on as soon as
 * clients authenticate (SASL, or TLS client certificates) and leaves a PLAINTEXT broker as open as before; a malformed
 * ACL or super user stops startup with an error naming the setting.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { runSluice, type SluiceProcess } from "../../helpers/sluice-process";
import { stopProcess } from "../streams/wordcount-processes";

const SASL = ["--broker.security.protocol=SASL_PLAINTEXT", "--broker.sasl.mechanisms=PLAIN", "--broker.sasl.users=alice:alice-secret"];

/** The authorizer the broker started with, and whether it warned that it refuses every client. */
async function authorizerOf(args: string[]): Promise<[unknown, boolean]> {
  const broker = runSluice(["broker", "--broker.port=0", "--broker.storage=memory", ...args]);
  try {
    const listening = await eventually(() => {
      if (broker.child.exitCode !== null) throw new Error(`the broker exited: ${broker.stderr()}`);
      return broker.logs().find((line) => line.msg === "broker listening");
    }, { timeoutMs: 15_000, what: "the broker to listen" });
    return [listening.authorizer, broker.logs().some((line) => line.level === "warn" && String(line.msg).includes("every client is refused"))];
  } finally {
    await stopProcess(broker, "SIGTERM");
  }
}

async function startupError(args: string[]): Promise<string> {
  const broker: SluiceProcess = runSluice(["broker", "--broker.port=0", "--broker.storage=memory", ...args]);
  const { code } = await broker.exited;
  assert.is.not(code, 0);
  return broker.stderr();
}

test("auto: ACLs with SASL, none on PLAINTEXT; an explicit choice wins", async () => {
  assert.equal(await authorizerOf([]), ["none", false], "the quick start's broker stays open");
  assert.equal(await authorizerOf(SASL), ["acl", true], "with no ACL and no super user, a warning says every client is refused");
  assert.equal(await authorizerOf([...SASL, "--broker.super.users=User:alice"]), ["acl", false]);
  assert.equal(await authorizerOf([...SASL, "--broker.authorizer=none"]), ["none", false]);
  assert.equal(await authorizerOf(["--broker.authorizer=acl", "--broker.acls=ALLOW User:ANONYMOUS READ TOPIC:public"]), ["acl", false]);
});

test("a malformed ACL or super user stops startup, naming the setting and the entry", async () => {
  const acl = await startupError([...SASL, "--broker.acls=ALLOW User:alice READ TOPIC:orders; PERMIT User:bob READ TOPIC:orders"]);
  assert.match(acl, /broker\.acls: 'PERMIT User:bob READ TOPIC:orders': 'PERMIT' is neither ALLOW nor DENY/);
  const operation = await startupError([...SASL, "--broker.acls=ALLOW User:alice IDEMPOTENT_WRITE TOPIC:orders"]);
  assert.match(operation, /operation IDEMPOTENT_WRITE does not apply to TOPIC/);
  const superUser = await startupError([...SASL, "--broker.super.users=admin"]);
  assert.match(superUser, /broker\.super\.users: 'admin' is not Type:name/);
});

test.run();
