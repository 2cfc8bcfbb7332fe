package com.example.contacts.search;

import java.util.ArrayList;
import java.util.List;

public class ContactFilter {

    private final List<Contact> contacts;

    public ContactFilter(List<Contact> contacts) {
        this.contacts = contacts;
    }

    public List<Contact> matching(String query) {
        String needle = query.trim().toLowerCase();
        List<Contact> result = new ArrayList<>();
        for (Contact contact : contacts) {
            if (contact.getDisplayName().toLowerCase().contains(needle)) {
                result.add(contact);
            }
        }
        return result;
    }

    public String regionKey(Contact contact) {
        return contact.getCountryCode().toUpperCase() + ":" + contact.getId();
    }
}
