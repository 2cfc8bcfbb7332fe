package com.gateway.security;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

public class IpFilter {

    private final Set<String> blacklistedIps = ConcurrentHashMap.newKeySet();
    private final Set<String> whitelistedIps = ConcurrentHashMap.newKeySet();
    private final NodeClient masterNode;
    private final NodeClient slaveNode;

    public IpFilter(NodeClient primary, NodeClient replica) {
        this.masterNode = primary;
        this.slaveNode = replica;
    }

    public boolean allow(String ip) {
        if (whitelistedIps.contains(ip)) {
            return true;
        }
        return !blacklistedIps.contains(ip);
    }

    public void ban(String ip) {
        blacklistedIps.add(ip);
        masterNode.publish("ban", ip);
    }

    public int bannedCount() {
        return slaveNode.count("ban");
    }
}
