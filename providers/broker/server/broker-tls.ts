/** The TLS of a broker listener, as PEM texts (not paths: the options cross into the broker's worker thread). */
export interface BrokerTls {
  cert: string;
  key: string;
  /** The CA that signs the client certificates the broker then requires. */
  ca?: string;
}
