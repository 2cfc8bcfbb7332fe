package com.crm.sync;

import java.util.List;

public class UserSyncJob {

    private final UserRepository userRepository;
    private final CrmClient crmClient;

    public UserSyncJob(UserRepository userRepository, CrmClient crmClient) {
        this.userRepository = userRepository;
        this.crmClient = crmClient;
    }

    public int run(List<Long> userIds) {
        int synced = 0;
        for (Long userId : userIds) {
            User user = userRepository.findById(userId);
            // 已注销用户由 CRM 侧自行归档，这里不推送
            if (user == null || user.isDeactivated()) {
                continue;
            }
            crmClient.push(user);
            synced++;
        }
        return synced;
    }
}
