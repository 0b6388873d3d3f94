package org.onlinekernels.cli;

public final class Main {
  public static void main(String[] args) {
    System.out.println("java " + Runtime.version() + " vector=" + ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent());
  }
}
