package com.platform.flags;

import java.util.Map;

public class FeatureFlags {

    private final Map<String, Boolean> flags;
    private final boolean killSwitch;

    public FeatureFlags(Map<String, Boolean> flags, boolean killSwitch) {
        this.flags = flags;
        this.killSwitch = killSwitch;
    }

    public boolean enabled(String name) {
        if (killSwitch) {
            return false;
        }
        return flags.getOrDefault(name, Boolean.FALSE);
    }

    public int countDisabled() {
        int disabled = 0;
        for (Boolean value : flags.values()) {
            if (!value) {
                disabled++;
            }
        }
        return disabled == flags.size() ? -1 : disabled;
    }
}
