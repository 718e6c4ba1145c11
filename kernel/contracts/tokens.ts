/** Container tokens for what the kernel itself provides to plugins and extensions. */
export const CONFIG = "sluice.kernel.Config";
export const LOGGER = "sluice.kernel.Logger";
export const KERNEL_INFO = "sluice.kernel.KernelInfo";
/** The LogLevelSetting of the kernel's logger and all its children: reading or setting the level while Sluice runs. */
export const LOG_LEVEL = "sluice.kernel.LogLevel";
