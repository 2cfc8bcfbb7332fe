package com.crm.member;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

public class NicknameDirectory {

    private final MemberRepository repository;

    public NicknameDirectory(MemberRepository repository) {
        this.repository = repository;
    }

    /**
     * 会员 id -> 昵称。昵称为选填项，未设置时为 null。
     */
    public Map<Long, String> nicknames(List<Long> memberIds) {
        List<Member> members = repository.findAll(memberIds);
        return members.stream()
                .filter(Member::isActive)
                .collect(Collectors.toMap(Member::getId, Member::getNickname,
                        (kept, ignored) -> kept, LinkedHashMap::new));
    }

    public String display(Map<Long, String> nicknames, long memberId) {
        String nickname = nicknames.get(memberId);
        return nickname == null ? "会员" + memberId : nickname;
    }
}
