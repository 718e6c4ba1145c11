/** Container tokens for what the kernel itself provides to plugins and extensions. */
import type { SluiceConfig } from "../config/sluice-config";
import type { Logger, LogLevelSetting } from "../logger";
import type { KernelInfo } from "./plugin";
import { token } from "./token";

export const CONFIG = token<SluiceConfig>("sluice.kernel.Config");
export const LOGGER = token<Logger>("sluice.kernel.Logger");
export const KERNEL_INFO = token<KernelInfo>("sluice.kernel.KernelInfo");
/** The LogLevelSetting of the kernel's logger and all its children: reading or setting the level while Sluice runs. */
export const LOG_LEVEL = token<LogLevelSetting>("sluice.kernel.LogLevel");
