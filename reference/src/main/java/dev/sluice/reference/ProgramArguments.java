package dev.sluice.reference;

import java.util.Properties;

/** The command lines of the reference programs: after their own arguments, client configs written name=value. */
public final class ProgramArguments {
    private ProgramArguments() {}

    /** Puts every name=value argument from index {@code from} on into {@code configs}. */
    public static Properties withConfigs(Properties configs, String[] args, int from) {
        for (int i = from; i < args.length; i++) {
            String[] pair = args[i].split("=", 2);
            if (pair.length != 2) throw new IllegalArgumentException("a config is written name=value, not " + args[i]);
            configs.put(pair[0], pair[1]);
        }
        return configs;
    }
}
