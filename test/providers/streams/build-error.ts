/** For tests of topology validation: the message of the error that building a topology throws. */
import type { StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import { TopologyTestDriver } from "../../../providers/streams/testing/topology-test-driver";

export async function buildError(topology: (builder: StreamsBuilder) => void): Promise<string> {
  try {
    const driver = await TopologyTestDriver.create(topology);
    await driver.close();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the topology was built");
}
