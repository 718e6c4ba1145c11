/** The error a topology gets when it is built (in a TopologyTestDriver), for tests of what the DSL refuses. */
import type { StreamsBuilder } from "../../kernel/contracts/streams/dsl";
import { TopologyTestDriver } from "../../providers/streams/testing/topology-test-driver";

export async function buildError(topology: (builder: StreamsBuilder) => void): Promise<string> {
  try {
    const driver = await TopologyTestDriver.create(topology);
    await driver.close();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the topology was built");
}
