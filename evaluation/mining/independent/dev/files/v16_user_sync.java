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
        // set synced to 0
        int synced = 0;
        // loop over user ids
        for (Long userId : userIds) {
            // get user by id
            User user = userRepository.findById(userId);
            if (user == null) {
                continue;
            }
            // push user to crm
            crmClient.push(user);
            // increment synced
            synced++;
        }
        // return synced
        return synced;
    }
}
