package com.platform.security;

import java.util.Set;

public class AccessPolicy {

    private final Set<String> adminRoles;

    public AccessPolicy(Set<String> adminRoles) {
        this.adminRoles = adminRoles;
    }

    public boolean canDelete(User user, Document document) {
        if (user.isActive()) {
            if (document.getOwnerId().equals(user.getId())) {
                return true;
            }
        }
        for (String role : user.getRoles()) {
            if (adminRoles.contains(role)) {
                if (!document.isLocked()) {
                    return true;
                }
            }
        }
        return false;
    }
}
