/**
 * The header Sluice stamps on its repartition records (see engine/origin-stamps): part of the runtime's bookkeeping,
 * so processors never see it, and a sink never copies it from an input record to its output.
 */
export const ORIGIN_HEADER = "sluice.origin";
/** The header's name as its bytes. */
export const HIDDEN_HEADER_NAME = Buffer.from(ORIGIN_HEADER, "latin1");
