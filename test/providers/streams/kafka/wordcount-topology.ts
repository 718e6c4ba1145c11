/** wordcount's compiled topology: sub-topology 0 splits lines (stateless), 1 counts into a logged store. */
import { WordCountProvider } from "../../../../providers/examples";
import { buildTopology } from "../../../../providers/streams/engine/build-topology";
import { applicationConfig } from "../../../../providers/streams/streams-config";

const wordcount = new WordCountProvider();
export const wordcountTopology = buildTopology(wordcount, applicationConfig([{ values: wordcount.config, source: "the test" }]));
