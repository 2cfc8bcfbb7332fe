package com.helpdesk.queue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

public class TicketQueue {

    private final List<Ticket> tickets = new ArrayList<>();

    public void add(Ticket ticket) {
        tickets.add(ticket);
    }

    public List<Ticket> ordered() {
        List<Ticket> copy = new ArrayList<>(tickets);
        // 优先级高的排前面
        Collections.sort(copy, (left, right) -> left.getPriority() >= right.getPriority() ? -1 : 1);
        return copy;
    }

    public static final Comparator<Ticket> BY_AGE = new Comparator<Ticket>() {
        @Override
        public int compare(Ticket a, Ticket b) {
            if (a.getCreatedAt().isBefore(b.getCreatedAt())) {
                return -1;
            }
            return 1;
        }
    };
}
