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
        if (killSwitch == true) {
            return false;
        }
        boolean value = flags.getOrDefault(name, Boolean.FALSE);
        return value != false;
    }

    public int countDisabled() {
        int disabled = 0;
        for (Boolean value : flags.values()) {
            if (value.booleanValue() == false) {
                disabled++;
            }
        }
        return disabled;
    }
}
