/**
 * Whether two route patterns can match the same path, segment by segment: a static segment meets another
 * only when they are equal, a parameter (`:id`) meets anything, an optional parameter (`:id?`) may also be
 * absent, and a wildcard (`*`) takes every segment left. With the router's first-match order, one of two
 * overlapping routes hides the other for the paths they share.
 */

type Segment = { kind: "static"; text: string } | { kind: "param" } | { kind: "optional" } | { kind: "wildcard" };

export function routePatternsOverlap(a: string, b: string): boolean {
  return overlap(segmentsOf(a), segmentsOf(b));
}

function segmentsOf(pattern: string): Segment[] {
  return pattern
    .split("/")
    .filter((part) => part !== "")
    .map((part): Segment => {
      if (part === "*") return { kind: "wildcard" };
      if (part.startsWith(":")) return part.endsWith("?") ? { kind: "optional" } : { kind: "param" };
      return { kind: "static", text: part };
    });
}

function overlap(a: readonly Segment[], b: readonly Segment[]): boolean {
  if (a.length === 0 || b.length === 0) return [...a, ...b].every((segment) => segment.kind === "optional" || segment.kind === "wildcard");
  const [headA, headB] = [a[0], b[0]];
  if (headA.kind === "wildcard" || headB.kind === "wildcard") return true;
  if (headA.kind === "optional" && overlap(a.slice(1), b)) return true;
  if (headB.kind === "optional" && overlap(a, b.slice(1))) return true;
  if (headA.kind === "static" && headB.kind === "static" && headA.text !== headB.text) return false;
  return overlap(a.slice(1), b.slice(1));
}
