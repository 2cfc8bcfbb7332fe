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
        Collections.sort(copy, (left, right) -> Integer.compare(right.getPriority(), left.getPriority()));
        return copy;
    }

    public static final Comparator<Ticket> BY_AGE = new Comparator<Ticket>() {
        @Override
        public int compare(Ticket a, Ticket b) {
            return a.getCreatedAt().compareTo(b.getCreatedAt());
        }
    };

    public static final Comparator<Ticket> BY_PRIORITY_THEN_AGE =
            Comparator.comparingInt(Ticket::getPriority).reversed().thenComparing(BY_AGE);
}
