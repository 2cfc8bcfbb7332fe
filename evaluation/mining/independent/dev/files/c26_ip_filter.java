package com.gateway.security;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

public class IpFilter {

    private final Set<String> blockedIps = ConcurrentHashMap.newKeySet();
    private final Set<String> allowedIps = ConcurrentHashMap.newKeySet();
    private final NodeClient primaryNode;
    private final NodeClient replicaNode;

    public IpFilter(NodeClient primaryNode, NodeClient replicaNode) {
        this.primaryNode = primaryNode;
        this.replicaNode = replicaNode;
    }

    public boolean allow(String ip) {
        if (allowedIps.contains(ip)) {
            return true;
        }
        return !blockedIps.contains(ip);
    }

    public void block(String ip) {
        blockedIps.add(ip);
        primaryNode.publish("block", ip);
    }

    public int blockedCount() {
        return replicaNode.count("block");
    }
}
