/**
 * Kafka's rule for a group's protocol: among the protocols every member supports, each member votes for the
 * one it prefers most, and the protocol with the most votes wins. Ties go to the protocol the earliest member
 * voted for, so the choice is deterministic.
 */
import type { GroupProtocol } from "./group-coordinator";

export function commonProtocols(memberProtocols: GroupProtocol[][]): string[] {
  if (memberProtocols.length === 0) return [];
  const [first, ...rest] = memberProtocols;
  return first.map((p) => p.name).filter((name) => rest.every((protocols) => protocols.some((p) => p.name === name)));
}

export function selectProtocol(memberProtocols: GroupProtocol[][]): string {
  const candidates = new Set(commonProtocols(memberProtocols));
  const votes = new Map<string, number>();
  for (const protocols of memberProtocols) {
    const choice = protocols.find((p) => candidates.has(p.name));
    if (choice !== undefined) votes.set(choice.name, (votes.get(choice.name) ?? 0) + 1);
  }
  let winner: string | undefined;
  let most = 0;
  for (const [name, count] of votes) {
    if (count > most) {
      winner = name;
      most = count;
    }
  }
  if (winner === undefined) throw new Error("the members share no protocol");
  return winner;
}
