package com.hr.directory;

import java.util.Optional;

public class ManagerLookup {

  private final EmployeeRepository employees;

  public ManagerLookup(EmployeeRepository employees) {
    this.employees = employees;
  }

  public Optional<Employee> findEmployee(String id) {
    return employees.byId(id);
  }

  public Optional<Employee> findManager(Employee employee) {
    return employee.getManagerId() == null ? Optional.empty() : employees.byId(employee.getManagerId());
  }

  public boolean hasManager(String employeeId) {
    return findEmployee(employeeId).map(this::findManager).isPresent();
  }

  public String managerEmail(String employeeId) {
    return findEmployee(employeeId)
        .map(e -> findManager(e))
        .map(Object::toString)
        .orElse("nobody@example.com");
  }
}
