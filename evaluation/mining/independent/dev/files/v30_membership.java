package com.crm.membership;

import java.time.LocalDate;
import java.util.concurrent.TimeUnit;

public class MembershipService {

    private static final long ONE_YEAR_MS = 365L * TimeUnit.DAYS.toMillis(1);

    private final MemberRepository members;

    public MembershipService(MemberRepository members) {
        this.members = members;
    }

    public LocalDate renew(long memberId, LocalDate paidOn) {
        Member member = members.find(memberId);
        LocalDate start = member.getExpiresOn().isAfter(paidOn) ? member.getExpiresOn() : paidOn;
        // 续费一年
        LocalDate expires = start.plusDays(365);
        member.setExpiresOn(expires);
        members.save(member);
        return expires;
    }

    public boolean expiredByToken(long issuedAtMillis, long nowMillis) {
        return nowMillis - issuedAtMillis > ONE_YEAR_MS;
    }
}
