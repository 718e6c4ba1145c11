/**
 * The SASL mechanisms' messages and SCRAM's key derivation: RFC 7677's SCRAM-SHA-256 example computed from its
 * password, the messages formatted and read back, and malformed or refusing messages named.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  authMessage,
  clientKeyOf,
  decodeSaslName,
  encodeOAuthBearer,
  encodePlain,
  encodeSaslName,
  formatClientFirst,
  formatServerFinal,
  formatServerFirst,
  hash,
  hmac,
  parseClientFinal,
  parseClientFirst,
  parseOAuthBearer,
  parsePlain,
  parseServerFinal,
  parseServerFirst,
  saltedPassword,
  scramCredential,
  xor,
} from "../../../providers/kafka-protocol";

// RFC 7677 §3: user "user", password "pencil".
const CLIENT_FIRST = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
const SERVER_FIRST = "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
const CLIENT_FINAL = "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
const SERVER_FINAL = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";

test("RFC 7677's SCRAM-SHA-256 exchange: the client's proof and the server's signature follow from the password", async () => {
  const first = parseClientFirst(CLIENT_FIRST);
  assert.is(first.username, "user");
  assert.is(first.bare, "n=user,r=rOprNGfwEbeRWgbNEkqO");
  const serverFirst = parseServerFirst(SERVER_FIRST);
  assert.is(serverFirst.iterations, 4096);
  assert.ok(serverFirst.nonce.startsWith(first.nonce));
  const final = parseClientFinal(CLIENT_FINAL);
  assert.is(final.nonce, serverFirst.nonce);
  assert.is(final.channelBinding, "biws");

  const signed = authMessage(first.bare, SERVER_FIRST, final.withoutProof);
  const salted = await saltedPassword("SCRAM-SHA-256", "pencil", serverFirst.salt, serverFirst.iterations);
  const clientKey = clientKeyOf("SCRAM-SHA-256", salted);
  const credential = await scramCredential("SCRAM-SHA-256", "pencil", serverFirst.salt, serverFirst.iterations);
  assert.equal(xor(clientKey, hmac("SCRAM-SHA-256", credential.storedKey, signed)), final.proof, "the client's proof");
  // What the server does: recover the ClientKey from the proof and compare its hash with the StoredKey.
  assert.equal(hash("SCRAM-SHA-256", xor(final.proof, hmac("SCRAM-SHA-256", credential.storedKey, signed))), credential.storedKey);
  assert.is(formatServerFinal(hmac("SCRAM-SHA-256", credential.serverKey, signed)), SERVER_FINAL);
  assert.equal(parseServerFinal(SERVER_FINAL), hmac("SCRAM-SHA-256", credential.serverKey, signed));
});

test("SCRAM messages read back as written; saslnames escape ',' and '='", () => {
  assert.is(encodeSaslName("a,b=c"), "a=2Cb=3Dc");
  assert.is(decodeSaslName("a=2Cb=3Dc"), "a,b=c");
  assert.throws(() => decodeSaslName("a=2Xb"), /invalid saslname/);
  const first = parseClientFirst(formatClientFirst("team,ops=1", "nonce123"));
  assert.is(first.username, "team,ops=1");
  assert.is(first.nonce, "nonce123");
  const serverFirst = { nonce: "nonce123abc", salt: Buffer.from([1, 2, 3]), iterations: 8192 };
  assert.equal(parseServerFirst(formatServerFirst(serverFirst)), serverFirst);
  // Kafka's delegation tokens ride on a client-first extension.
  assert.is(parseClientFirst("n,,n=user,r=abc,tokenauth=true").extensions.get("tokenauth"), "true");
});

test("SCRAM messages that break the format, or carry the other side's refusal, are named", () => {
  assert.throws(() => parseClientFirst("p=tls-unique,,n=user,r=abc"), /channel binding is not supported/);
  assert.throws(() => parseClientFirst("n,,r=abc"), /expected attribute 'n'/);
  assert.throws(() => parseClientFirst("n,a=other,n=user,r=abc"), /authorization identity differs/);
  assert.throws(() => parseServerFirst("e=unknown-user"), /the server refused: unknown-user/);
  assert.throws(() => parseServerFirst("r=abc,s=!!,i=4096"), /invalid base64/);
  assert.throws(() => parseServerFinal("e=invalid-proof"), /the server refused: invalid-proof/);
  assert.throws(() => parseClientFinal("c=biws,r=abc"), /no proof/);
  assert.throws(() => xor(Buffer.alloc(3), Buffer.alloc(32)), /proof of 3 bytes/);
});

test("PLAIN carries an empty authorization identity, the user name and the password", () => {
  const bytes = encodePlain({ username: "alice", password: "s3cr:et" });
  assert.equal(bytes, Buffer.from("\0alice\0s3cr:et"));
  assert.equal(parsePlain(bytes), { username: "alice", password: "s3cr:et" });
  assert.equal(parsePlain(Buffer.from("alice\0alice\0pw")), { username: "alice", password: "pw" });
  assert.throws(() => parsePlain(Buffer.from("bob\0alice\0pw")), /authorization identity differs/);
  assert.throws(() => parsePlain(Buffer.from("alice:pw")), /malformed PLAIN/);
});

test("OAUTHBEARER carries the token and the extensions between 0x01 separators (RFC 7628)", () => {
  const bytes = encodeOAuthBearer({ token: "eyJ.abc.def", extensions: new Map([["logicalCluster", "lkc-123"]]) });
  assert.is(bytes.toString(), "n,,\x01auth=Bearer eyJ.abc.def\x01logicalCluster=lkc-123\x01\x01");
  const parsed = parseOAuthBearer(bytes);
  assert.is(parsed.token, "eyJ.abc.def");
  assert.equal([...parsed.extensions], [["logicalCluster", "lkc-123"]]);
  assert.throws(() => encodeOAuthBearer({ token: "t", extensions: new Map([["auth", "x"]]) }), /invalid OAUTHBEARER extension name 'auth'/);
  assert.throws(() => parseOAuthBearer(Buffer.from("n,,\x01auth=Basic abc\x01\x01")), /not 'Bearer <token>'/);
  assert.throws(() => parseOAuthBearer(Buffer.from("n,,\x01host=x\x01\x01")), /without a token/);
});

test.run();
