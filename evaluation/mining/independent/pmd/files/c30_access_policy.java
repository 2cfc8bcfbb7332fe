package com.platform.security;

import java.util.Set;

public class AccessPolicy {

    private final Set<String> adminRoles;
    private final AuditTrail audit;

    public AccessPolicy(Set<String> adminRoles, AuditTrail audit) {
        this.adminRoles = adminRoles;
        this.audit = audit;
    }

    public boolean canDelete(User user, Document document) {
        if (user.isActive() && document.getOwnerId().equals(user.getId())) {
            return true;
        }
        for (String role : user.getRoles()) {
            if (adminRoles.contains(role)) {
                if (document.isLocked()) {
                    audit.denied(user, document);
                } else {
                    return true;
                }
            }
        }
        return false;
    }
}
