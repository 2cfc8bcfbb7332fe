package com.crm.member;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

public class NicknameDirectory {

    private final MemberRepository repository;

    public NicknameDirectory(MemberRepository repository) {
        this.repository = repository;
    }

    public Map<Long, String> nicknames(List<Long> memberIds) {
        List<Member> members = repository.findAll(memberIds);
        return members.stream()
                .filter(Member::isActive)
                .collect(Collectors.toMap(Member::getId, m -> Objects.toString(m.getNickname(), ""),
                        (kept, ignored) -> kept, LinkedHashMap::new));
    }

    public Map<Long, String> namedOnly(List<Member> members) {
        return members.stream()
                .filter(m -> m.getNickname() != null)
                .collect(Collectors.toMap(Member::getId, Member::getNickname, (kept, ignored) -> kept));
    }
}
