/** Topic settings persisted as `<dataDir>/topics/<topic>.json`, each written atomically (temp file + rename). */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { LogStoreOptions, TopicSettings } from "./log-store";
import type { ComponentLogger } from "../../../kernel/logger";
import { resolveTopicSettings } from "./topic-settings-rules";

const SETTINGS_SUFFIX = ".json";

export class TopicSettingsFiles {
  private readonly dir: string;

  constructor(
    dataDir: string,
    private readonly options: LogStoreOptions,
    private readonly logger: ComponentLogger,
  ) {
    this.dir = path.join(dataDir, "topics");
  }

  async loadAll(): Promise<Map<string, TopicSettings>> {
    await fs.mkdir(this.dir, { recursive: true });
    const topics = new Map<string, TopicSettings>();
    for (const file of (await fs.readdir(this.dir)).sort()) {
      if (!file.endsWith(SETTINGS_SUFFIX)) continue;
      const name = file.slice(0, -SETTINGS_SUFFIX.length);
      try {
        const saved = JSON.parse(await fs.readFile(path.join(this.dir, file), "utf8")) as Partial<TopicSettings>;
        const settings = resolveTopicSettings(saved, this.options);
        // A topic saved before topic ids existed gets its id now, kept from then on.
        if (saved.topicId !== settings.topicId) await this.save(name, settings);
        topics.set(name, settings);
      } catch (error) {
        this.logger.error("ignoring unreadable topic settings", { file: path.join(this.dir, file), error: String(error) });
      }
    }
    return topics;
  }

  async save(name: string, settings: TopicSettings): Promise<void> {
    const target = this.fileOf(name);
    const temp = `${target}.tmp`;
    await fs.writeFile(temp, JSON.stringify(settings));
    await fs.rename(temp, target);
  }

  async remove(name: string): Promise<void> {
    await fs.rm(this.fileOf(name), { force: true });
  }

  private fileOf(name: string): string {
    return path.join(this.dir, `${name}${SETTINGS_SUFFIX}`);
  }
}
