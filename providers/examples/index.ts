/** The example applications and their sample-data feeder. */
export { WordCountProvider } from "./wordcount";
export { PageViewsProvider } from "./pageviews";
export { SessionsProvider } from "./sessions";
export { LatestReadingsProvider } from "./latest";
export { startExampleFeeder, type ExampleFeederOptions } from "./example-feeder";
