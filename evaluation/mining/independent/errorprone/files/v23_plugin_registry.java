package com.platform.plugins;

import java.util.ArrayList;
import java.util.List;

public class PluginRegistry {

    private final List<Class<?>> registered = new ArrayList<>();

    public void register(Class<?> pluginType) {
        registered.add(pluginType);
    }

    public List<Class<?>> implementationsOf(Class<?> contract) {
        List<Class<?>> found = new ArrayList<>();
        for (Class<?> candidate : registered) {
            if (contract.isInstance(candidate)) {
                found.add(candidate);
            }
        }
        return found;
    }

    public boolean accepts(Object plugin, Class<?> contract) {
        return contract.isInstance(plugin.getClass());
    }
}
