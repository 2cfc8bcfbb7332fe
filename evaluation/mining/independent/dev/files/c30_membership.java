package com.crm.membership;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

public class MembershipService {

    private final MemberRepository members;

    public MembershipService(MemberRepository members) {
        this.members = members;
    }

    public LocalDate renew(long memberId, LocalDate paidOn) {
        Member member = members.find(memberId);
        LocalDate start = member.getExpiresOn().isAfter(paidOn) ? member.getExpiresOn() : paidOn;
        LocalDate expires = start.plusYears(1);
        member.setExpiresOn(expires);
        members.save(member);
        return expires;
    }

    public boolean expiredByToken(Instant issuedAt, Instant now) {
        LocalDate issuedDay = issuedAt.atZone(ZoneOffset.UTC).toLocalDate();
        Duration year = Duration.ofDays(issuedDay.lengthOfYear());
        return Duration.between(issuedAt, now).compareTo(year) > 0;
    }
}
